import { MedusaApp, MedusaAppMigrateUp, MedusaModule } from '@medusajs/framework/modules-sdk';
import type { IPaymentModuleService } from '@medusajs/framework/types';
import { ContainerRegistrationKeys, Modules, ModulesSdkUtils } from '@medusajs/framework/utils';
import sandboxProvider, { type SandboxOptions } from '../src';
import { medusaDatabaseUrl } from './support';

// Medusa's real payment module (@medusajs/payment) in a MedusaApp with this provider registered under the
// id `test` (so Medusa names it pp_sandbox_test), on its own PostgreSQL database, migrated by Medusa's
// migrations; no Redis, no HTTP server: the test calls the module's service as Medusa's workflows do.

export const PROVIDER_ID = 'pp_sandbox_test';

export type PaymentModule = { service: IPaymentModuleService; shutdown: () => Promise<void> };

export async function loadPaymentModule(providerOptions: SandboxOptions): Promise<PaymentModule> {
  const database = { clientUrl: medusaDatabaseUrl, schema: 'public' };
  const connection = ModulesSdkUtils.createPgConnection(database);
  const modulesConfig = {
    [Modules.PAYMENT]: {
      resolve: '@medusajs/payment',
      options: {
        database,
        providers: [{ resolve: sandboxProvider, id: 'test', options: providerOptions }],
      },
    },
  };
  const quiet = { info() {}, warn() {}, debug() {}, log() {}, error: console.error, activity() {}, progress() {} };
  const injectedDependencies = {
    [ContainerRegistrationKeys.PG_CONNECTION]: connection,
    [ContainerRegistrationKeys.LOGGER]: quiet,
  };
  const sharedResourcesConfig = { database };
  await MedusaAppMigrateUp({ modulesConfig, injectedDependencies, sharedResourcesConfig });
  const app = await MedusaApp({ modulesConfig, injectedDependencies, sharedResourcesConfig });
  return {
    service: app.modules[Modules.PAYMENT] as unknown as IPaymentModuleService,
    shutdown: async () => {
      await app.onApplicationShutdown();
      await connection.destroy();
      MedusaModule.clearInstances();
    },
  };
}
