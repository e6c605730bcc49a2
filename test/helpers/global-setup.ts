import type { TestProject } from 'vitest/node';
import { startTestCluster } from './test-database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    testCluster: { adminUrl: string; templateName: string };
  }
}

export default async function setup(project: TestProject) {
  const cluster = await startTestCluster();
  project.provide('testCluster', { adminUrl: cluster.adminUrl, templateName: cluster.templateName });
  return async () => {
    await cluster.stop();
  };
}
