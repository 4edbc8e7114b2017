import type { TestProject } from 'vitest/node';
import { adminUrl, dropOldTestDatabases, prepareTemplate } from './databases';

declare module 'vitest' {
  export interface ProvidedContext {
    adminUrl: string;
    serverUrl: string;
    serverDatabaseUrl: string;
  }
}

const state = globalThis as unknown as { testTemplate?: Promise<string> };

export default async function setup(project: TestProject) {
  // both projects run this (in one process); the template is built once
  state.testTemplate ??= (async () => {
    const admin = await adminUrl();
    await dropOldTestDatabases(admin);
    await prepareTemplate(admin);
    return admin;
  })();
  project.provide('adminUrl', await state.testTemplate);
}
