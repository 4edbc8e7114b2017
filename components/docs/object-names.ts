import { responseComponentName } from '@/lib/openapi/components';
import { API_OPERATIONS } from '@/lib/openapi/operations';

/** The objects the reference describes: what the endpoints answer with (not list pages, not this document), and the error body. */
export function documentedObjectNames(): string[] {
  const names = API_OPERATIONS.filter((operation) => operation.scope).map((operation) =>
    responseComponentName(operation.success.schema),
  );
  return [...new Set(names.filter((name) => !name.endsWith('List'))), 'Error'];
}
