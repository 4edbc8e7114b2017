-- Authorize now, capture later: a card accepted on a manual-capture session waits in requires_capture until it is
-- captured (succeeded) or canceled. On their own: a value added to an enum cannot be used in the transaction that
-- adds it, and the next migration's index and constraints use them.
ALTER TYPE "PaymentStatus" ADD VALUE 'requires_capture';
ALTER TYPE "PaymentStatus" ADD VALUE 'canceled';
