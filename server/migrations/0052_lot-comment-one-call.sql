-- The technician's comment on a lot (« Commentaire pour l'admin ») saved in one call (decision 070): the application's
-- row locked, so that autosaves sent together never leave two comments, then its latest technician comment on the lot
-- rewritten, or one written when there is none; an empty text removes them. Each statement sees what the previous
-- holder of the lock committed (a statement of its own in a PL/pgSQL function). The service checks the application
-- (its technician, Recruté or Terminé) before the call. The answer is the saved text and its time, ISO 8601 in UTC.
create or replace function maillon_save_lot_comment(p_application uuid, p_batch uuid, p_technician uuid, p_content text)
returns table("savedContent" text, "savedAt" text)
language plpgsql as $$
declare
  v_saved_at timestamptz;
begin
  perform 1 from applications where id = p_application for update;
  if p_content = '' then
    delete from comments c where c.batch_id = p_batch and c.technician_id = p_technician and c.author_role = 'technician';
    "savedContent" := '';
    return next;
    return;
  end if;
  update comments c set content = p_content, created_at = clock_timestamp()
  where c.id = (
    select l.id from comments l
    where l.batch_id = p_batch and l.technician_id = p_technician and l.author_role = 'technician'
    order by l.created_at desc
    limit 1
  )
  returning c.created_at into v_saved_at;
  if not found then
    insert into comments (batch_id, technician_id, author_role, content) values (p_batch, p_technician, 'technician', p_content)
    returning created_at into v_saved_at;
  end if;
  "savedContent" := p_content;
  "savedAt" := maillon_json_time(v_saved_at);
  return next;
end
$$;
