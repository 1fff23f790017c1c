import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InvoicingResult, InvoicingRun } from '@tankportal/shared/schemas/invoicing-runs';
import { api } from '../../../lib/api-client.ts';
import { billingKeys } from './billing.ts';

export type { InvoicingResult, InvoicingRun };

export const invoicingRunKeys = {
  all: [...billingKeys.all, 'invoicing-runs'] as const,
  preview: (day: string) => [...invoicingRunKeys.all, 'preview', day] as const,
};

/** GET /v2/invoicing-runs/preview: what a run for `day` would bill; nothing is written. */
export function useInvoicingPreview(day: string, enabled: boolean) {
  return useQuery({
    queryKey: invoicingRunKeys.preview(day),
    queryFn: ({ signal }) =>
      api<InvoicingResult>('GET', `/v2/invoicing-runs/preview?date=${encodeURIComponent(day)}`, { signal }),
    enabled,
    // Always what is due now: a preview shown once must not stand in for the next confirmation.
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

/** POST /v2/invoicing-runs: bills what is due by `date` (today unless given). */
export function useInvoicingRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { date?: string }) => api<InvoicingResult>('POST', '/v2/invoicing-runs', { body }),
    meta: { errorToast: 'unlessFieldErrors' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKeys.all }),
  });
}

/** GET /v2/invoicing-runs: the latest runs, by hand and nightly, with what they billed and skipped. */
export function useInvoicingRuns() {
  return useQuery({
    queryKey: invoicingRunKeys.all,
    queryFn: ({ signal }) => api<InvoicingRun[]>('GET', '/v2/invoicing-runs', { signal }),
  });
}
