import { Badge } from '@/components/ui/badge';
import { httpStatusTone, statusLabel, statusTone } from '@/lib/dashboard/format';

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={statusTone(status)}>{statusLabel(status)}</Badge>;
}

/** An HTTP status code, or "No answer" when none came back. */
export function HttpStatusBadge({ status }: { status: number | null }) {
  return <Badge tone={httpStatusTone(status)}>{status ?? 'No answer'}</Badge>;
}
