import { MedusaError } from '@medusajs/framework/utils';
import { SandboxError } from '@sandbox-payments/client';

/** Runs a call to the API, turning its error into a MedusaError that says what the API said and where to look. */
export async function calling<T>(what: string, call: () => PromiseLike<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    throw new MedusaError(typeFor(error), describe(what, error));
  }
}

function describe(what: string, error: SandboxError): string {
  const detail = [error.code, error.param && `param ${error.param}`, error.requestId].filter(Boolean).join(', ');
  let message = `Sandbox payments could not ${what}: ${error.message}${detail ? ` (${detail})` : ''}`;
  if (error.code === 'url_not_approved')
    message +=
      '. Approve the storefront host as a website of the connection (dashboard, or the approve-website command)';
  if (error.status === 401 || error.status === 403) message += '. Check the provider option apiKey and its scopes';
  return message;
}

function typeFor(error: SandboxError): string {
  if (error.status === undefined || error.status >= 500 || error.status === 429)
    return MedusaError.Types.UNEXPECTED_STATE;
  if (error.status === 401 || error.status === 403) return MedusaError.Types.UNAUTHORIZED;
  if (error.status === 404) return MedusaError.Types.NOT_FOUND;
  if (error.status === 409) return MedusaError.Types.NOT_ALLOWED;
  return MedusaError.Types.INVALID_DATA;
}
