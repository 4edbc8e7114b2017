-- A name a merchant gives a key ("Production server", "CI") so the keys list says which is which.
-- Nullable: keys made before names existed, and keys made without one, show their prefix alone.
ALTER TABLE "api_keys" ADD COLUMN "name" TEXT;
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_name_length" CHECK (char_length("name") BETWEEN 1 AND 100);
