import SerializerSelector from '@fastify/fast-json-stringify-compiler';

/**
 * Fastify compiles a response serializer (fast-json-stringify, with ajv for its unions) for every
 * route and status at start: the biggest part of a start's CPU time and of the idle heap, mostly
 * for routes a given deployment rarely calls. Here each serializer is compiled by the same default
 * compiler on its route's first response instead; responses are byte for byte the same.
 */
export function lazySerializerFactory(): (
  externalSchemas?: unknown,
  options?: object,
) => (route: SerializerSelector.RouteDefinition) => SerializerSelector.Serializer {
  const buildCompiler = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = buildCompiler(externalSchemas, options);
    return (route) => {
      let serialize: SerializerSelector.Serializer | undefined;
      return (data) => (serialize ??= compile(route))(data);
    };
  };
}
