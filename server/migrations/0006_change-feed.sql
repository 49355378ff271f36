-- Change feed (docs/decisions/): every committed write to a watched table notifies the channel "maillon_changes" with
-- the table's name, so every server instance invalidates what it keeps in memory. Statement-level triggers are created
-- per table at start by ensureChangeTriggers (server/src/lib/change-feed/triggers.ts), so tables added later are
-- watched too. NOTIFY is transactional: delivered on commit, dropped on rollback.
create or replace function maillon_notify_change() returns trigger
language plpgsql as $$
begin
  perform pg_notify('maillon_changes', TG_TABLE_NAME);
  return null;
end
$$;
