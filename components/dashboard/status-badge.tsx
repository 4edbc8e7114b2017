import { Badge } from '@/components/ui/badge';
import { httpStatusTone, statusLabel, statusTone } from '@/lib/dashboard/format';

export function StatusBadge({ status }: { status: string }) {
  // "Partially refunded" is two words that belong on one line
  return (
    <Badge tone={statusTone(status)} className="whitespace-nowrap">
      {statusLabel(status)}
    </Badge>
  );
}

/** An HTTP status code, or "No answer" when none came back. */
export function HttpStatusBadge({ status }: { status: number | null }) {
  return <Badge tone={httpStatusTone(status)}>{status ?? 'No answer'}</Badge>;
}
