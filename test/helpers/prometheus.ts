/** One sample of the Prometheus text exposition format. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  /** Metric family name → its TYPE (counter, gauge, histogram, summary, untyped). */
  types: Map<string, string>;
  samples: Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: -?\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/y;
const FAMILY_SUFFIXES = ['_bucket', '_sum', '_count', '_total', ''];

/**
 * A strict reader of the text format (version 0.0.4): every line is a comment, a HELP/TYPE line or a
 * sample, every sample belongs to a family declared by a TYPE line before it, every value is a number.
 * Throws on the first line that is not.
 */
export function parsePrometheusText(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    const where = `line ${index + 1}: ${line}`;
    if (line.trim() === '') continue;
    if (line.startsWith('# TYPE ')) {
      const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
      if (!type) throw new Error(`bad TYPE, ${where}`);
      if (types.has(type[1]!)) throw new Error(`duplicate TYPE, ${where}`);
      types.set(type[1]!, type[2]!);
      continue;
    }
    if (line.startsWith('#')) continue; // HELP and comments
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a sample, ${where}`);
    const [, name, rawLabels = '', rawValue] = match;
    const labels: Record<string, string> = {};
    LABEL.lastIndex = 0;
    while (LABEL.lastIndex < rawLabels.length) {
      const label = LABEL.exec(rawLabels);
      if (!label) throw new Error(`bad labels, ${where}`);
      labels[label[1]!] = label[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    // Prometheus reads values with Go's ParseFloat: NaN in any case, ±Inf.
    const nan = /^nan$/i.test(rawValue!);
    const value = rawValue === '+Inf' ? Infinity : rawValue === '-Inf' ? -Infinity : nan ? NaN : Number(rawValue);
    if (Number.isNaN(value) && !nan) throw new Error(`bad value, ${where}`);
    const family = FAMILY_SUFFIXES.map((suffix) => (suffix && name!.endsWith(suffix) ? name!.slice(0, -suffix.length) : name!)).find((n) =>
      types.has(n),
    );
    if (family === undefined) throw new Error(`sample without a TYPE, ${where}`);
    samples.push({ name: name!, labels, value });
  }
  return { types, samples };
}

/** The samples named `name` whose labels include `labels`. */
export function find(exposition: Exposition, name: string, labels: Record<string, string> = {}): Sample[] {
  return exposition.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** The one sample named `name` with these labels (throws when there is not exactly one). */
export function value(exposition: Exposition, name: string, labels: Record<string, string> = {}): number {
  const found = find(exposition, name, labels);
  if (found.length !== 1) throw new Error(`expected one ${name} ${JSON.stringify(labels)}, found ${found.length}`);
  return found[0]!.value;
}
