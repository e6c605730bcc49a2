#!/usr/bin/env node
// The `statehouse` CLI run from its TypeScript sources through tsx, so the tests that spawn it always
// exercise the current code without a build. test/compiled.test.ts runs the compiled binary (bin/statehouse.js).
import { register } from 'tsx/esm/api';
register();
await import('../../src/cli/main.ts');
