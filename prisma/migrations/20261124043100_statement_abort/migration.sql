-- A write made as one statement (an idempotent create: claim the key, write the resource, store the answer)
-- cannot roll itself back when a rule fails halfway, as a transaction would: it calls this, which raises and
-- so undoes the whole statement. The reason comes back as the error's message (SQLSTATE P0001).
CREATE FUNCTION "abort_statement"("reason" text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = "reason";
END
$$;
