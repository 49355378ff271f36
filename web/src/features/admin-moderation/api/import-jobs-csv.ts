import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CsvImportMode, CsvImportResponse } from '@maillon/common/schemas/moderation';
import { api } from '@/lib/api-client';
import { invalidateModeration } from './invalidate';

/** POST /api/jobs/import-csv: preview (dry run, per-row errors) or commit (all or nothing). */
export function importJobsCsv({ file, mode }: { file: File; mode: CsvImportMode }) {
  const form = new FormData();
  form.append('file', file);
  return api.post<CsvImportResponse>(`/api/jobs/import-csv?mode=${mode}`, form);
}

export function useImportJobsCsv() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importJobsCsv,
    onSuccess: (result) => (result.mode === 'commit' ? invalidateModeration(queryClient) : undefined),
  });
}
