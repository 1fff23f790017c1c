import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SystemJob } from '@tankportal/shared/schemas/system-jobs';
import { api } from '../../../lib/api-client.ts';
import type { JsonOf } from '../../../lib/api/json.ts';

/** A recurring job as the web receives it (times as ISO strings). */
export type SystemJobView = JsonOf<SystemJob>;

const KEY = ['system-jobs'] as const;

const inProgress = (job: SystemJobView) =>
  job.lastRun?.state === 'pending' || job.lastRun?.state === 'running';

/**
 * `GET /v2/system/jobs` (master): the recurring jobs. Asked again every few seconds while a run
 * waits or runs, so that a run started here is seen to finish.
 */
export function useSystemJobs() {
  return useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => api<SystemJobView[]>('GET', '/v2/system/jobs', { signal }),
    refetchInterval: (query) => (query.state.data?.some(inProgress) ? 2_000 : 60_000),
  });
}

/** `POST /v2/system/jobs/{name}/run` (master): one run now; the page tells a refusal itself. */
export function useRunSystemJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api<SystemJobView>('POST', `/v2/system/jobs/${name}/run`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: KEY }),
    meta: { errorToast: false },
  });
}
