import type { TestProject } from 'vitest/node';
import { buildForTests } from './test-build.js';
import { startTestCluster } from './test-database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    testCluster: { adminUrl: string; templateName: string };
  }
}

export default async function setup(project: TestProject) {
  await buildForTests();
  const cluster = await startTestCluster();
  project.provide('testCluster', { adminUrl: cluster.adminUrl, templateName: cluster.templateName });
  return async () => {
    await cluster.stop();
  };
}
