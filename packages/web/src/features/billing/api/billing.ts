import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AccountingError,
  AccountingState,
  BillingTerms,
  CreateBillingTermsBody,
  InvoiceSeller,
  InvoiceStatus,
  SystemBillingTerms,
  UpdateBillingTermsBody,
} from '@tankportal/shared/schemas/billing';
import type { Locale } from '@tankportal/shared/constants';
import { api, apiDownload } from '../../../lib/api-client.ts';
import { deviceKeys } from '../../../lib/api/devices.ts';
import { fetchPage } from '../../../lib/api/paged.ts';
import type { MutationMeta } from '../../../lib/mutation-errors.ts';

// Billing: master only.

export type { BillingTerms, InvoiceSeller, SystemBillingTerms };

export interface InvoiceItem {
  id: number;
  sequence: number;
  type: string;
  name: string;
  additionalText: string | null;
  price: string;
  quantity: number;
  totalPrice: string;
  periodBegin: string;
  periodEnd: string;
  deviceInfo: {
    id: number;
    user: { username: string };
    address: {
      street: string | null;
      streetNumber: string | null;
      countryCode: string | null;
      postalCode: string | null;
      city: string | null;
    };
  } | null;
}

export interface Invoice {
  id: number;
  debtorIdent: string;
  billedAt: string;
  status: InvoiceStatus;
  vatRate: string;
  totalPrice: string;
  totalVatAmount: string;
  totalPriceGross: string;
  /** Where it stands in the accounting service, and why the last attempt failed. */
  accounting: { state: AccountingState; failure: AccountingError | null };
  items: InvoiceItem[];
}

export const billingKeys = {
  all: ['billing'] as const,
  deviceTerms: (deviceId: number) => [...deviceKeys.one(deviceId), 'billing-terms'] as const,
  terms: (termsId: number) => [...billingKeys.all, 'terms', termsId] as const,
  debtors: () => [...billingKeys.all, 'debtors'] as const,
  invoices: (year: number) => [...billingKeys.all, 'invoices', year] as const,
  invoice: (invoiceId: number) => [...billingKeys.all, 'invoice', invoiceId] as const,
  systemTerms: (page: number) => [...billingKeys.all, 'system-terms', page] as const,
  sellers: () => [...billingKeys.all, 'sellers'] as const,
};

/** GET /v2/invoice-sellers: a white-label and the seller its invoices name (null: not set yet). */
export interface InvoiceSellerEntry {
  whitelabel: { id: number; name: string; title: string };
  seller: InvoiceSeller | null;
}

/** Billing saves: field errors land on their fields; otherwise no message. */
const SILENT_SAVE: MutationMeta = { errorToast: false };

export function useDeviceBillingTerms(deviceId: number) {
  return useQuery({
    queryKey: billingKeys.deviceTerms(deviceId),
    queryFn: ({ signal }) => api<BillingTerms[]>('GET', `/v2/devices/${deviceId}/billing-terms`, { signal }),
  });
}

/** One terms entry; not retried: a 404 closes the edit dialog at once. */
export function useBillingTerms(termsId: number | null) {
  return useQuery({
    queryKey: billingKeys.terms(termsId ?? 0),
    queryFn: ({ signal }) => api<BillingTerms>('GET', `/v2/billing-terms/${termsId}`, { signal }),
    enabled: termsId !== null,
    retry: false,
  });
}

function useInvalidateTerms(deviceId: number) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: billingKeys.deviceTerms(deviceId) }),
      queryClient.invalidateQueries({ queryKey: billingKeys.all }),
    ]);
}

export function useCreateBillingTerms(deviceId: number) {
  const invalidate = useInvalidateTerms(deviceId);
  return useMutation({
    mutationFn: (body: CreateBillingTermsBody) =>
      api<BillingTerms>('POST', `/v2/devices/${deviceId}/billing-terms`, { body }),
    meta: SILENT_SAVE,
    onSuccess: invalidate,
  });
}

export function useUpdateBillingTerms(deviceId: number, termsId: number) {
  const invalidate = useInvalidateTerms(deviceId);
  return useMutation({
    mutationFn: (body: UpdateBillingTermsBody) =>
      api<BillingTerms>('PUT', `/v2/billing-terms/${termsId}`, { body }),
    meta: SILENT_SAVE,
    onSuccess: invalidate,
  });
}

export function useDeleteBillingTerms(deviceId: number) {
  const invalidate = useInvalidateTerms(deviceId);
  return useMutation({
    mutationFn: (termsId: number) => api<void>('DELETE', `/v2/billing-terms/${termsId}`),
    onSuccess: invalidate,
  });
}

/** The debtor idents in use, offered by the debtor dialog. */
export function useDebtors() {
  return useQuery({
    queryKey: billingKeys.debtors(),
    queryFn: ({ signal }) => api<{ ident: string }[]>('GET', '/v2/debtors', { signal }),
  });
}

/** The device detail carries debtor, order number and recipient address: it reloads after a save. */
function useDeviceSave<Body>(deviceId: number, path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) => api<void>('PUT', `/v2/devices/${deviceId}/${path}`, { body }),
    meta: SILENT_SAVE,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: deviceKeys.detail(deviceId) }),
        queryClient.invalidateQueries({ queryKey: billingKeys.all }),
      ]),
  });
}

export function useSaveDebtor(deviceId: number) {
  return useDeviceSave<{ ident: string | null }>(deviceId, 'debtor');
}

/** The texts of the invoice's recipient the device billing tab edits; absent ones stay. */
export type BillingRecipientField = 'recipientAddress' | 'orderNumber' | 'leitwegId';

export function useSaveBillingRecipient(deviceId: number) {
  return useDeviceSave<Partial<Record<BillingRecipientField, string | null>>>(deviceId, 'billing-recipient');
}

/** What an invoice is exported as: the PDF with the e-invoice embedded (ZUGFeRD), or the XML alone. */
export type InvoiceExportFormat = 'pdf' | 'xml';

/** GET /v2/invoices/{id}/export: the browser downloads the file; a refusal rejects (an ApiError). */
export function downloadInvoiceExport(invoiceId: number, format: InvoiceExportFormat, locale: Locale) {
  return apiDownload(`/v2/invoices/${invoiceId}/export`, { format, locale });
}

export function useInvoices(year: number) {
  return useQuery({
    queryKey: billingKeys.invoices(year),
    queryFn: ({ signal }) => api<Invoice[]>('GET', '/v2/invoices', { query: { year }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useInvoice(invoiceId: number | null) {
  return useQuery({
    queryKey: billingKeys.invoice(invoiceId ?? 0),
    queryFn: ({ signal }) => api<Invoice>('GET', `/v2/invoices/${invoiceId}`, { signal }),
    enabled: invoiceId !== null,
    retry: false,
  });
}

/** Saves that answer an invoice: it is kept, the lists reload. */
function useInvoiceMutation<Input>(call: (input: Input) => Promise<Invoice>, meta?: MutationMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    meta,
    onSuccess: (invoice) => {
      queryClient.setQueryData(billingKeys.invoice(invoice.id), invoice);
      return queryClient.invalidateQueries({ queryKey: [...billingKeys.all, 'invoices'] });
    },
  });
}

export function useSetInvoiceStatus(invoiceId: number) {
  return useInvoiceMutation((status: InvoiceStatus) =>
    api<Invoice>('PUT', `/v2/invoices/${invoiceId}/status`, { body: { status } }),
  );
}

/**
 * POST /v2/invoices: the invoice booked in the accounting service; the dialog tells failures
 * itself. A failed attempt changed the invoice's accounting state too: read it again.
 */
export function useCreateAccountingInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invoiceId: number) => api<Invoice>('POST', '/v2/invoices', { body: { id: invoiceId } }),
    meta: { errorToast: false },
    onSuccess: (invoice) => queryClient.setQueryData(billingKeys.invoice(invoice.id), invoice),
    onSettled: () => queryClient.invalidateQueries({ queryKey: billingKeys.all }),
  });
}

export function useSystemBillingTerms(page: number) {
  return useQuery({
    queryKey: billingKeys.systemTerms(page),
    queryFn: ({ signal }) => fetchPage<SystemBillingTerms>('/v2/billing-terms', { page }, signal),
    placeholderData: keepPreviousData,
  });
}

export function downloadBillingTermsExport() {
  return apiDownload('/v2/billing-terms/export');
}

export function useInvoiceSellers() {
  return useQuery({
    queryKey: billingKeys.sellers(),
    queryFn: ({ signal }) => api<InvoiceSellerEntry[]>('GET', '/v2/invoice-sellers', { signal }),
  });
}

/** PUT /v2/invoice-sellers/{whitelabelId}: field errors land on the fields, other failures toast. */
export function useSaveInvoiceSeller(whitelabelId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: InvoiceSeller) =>
      api<InvoiceSellerEntry>('PUT', `/v2/invoice-sellers/${whitelabelId}`, { body }),
    meta: { errorToast: 'unlessFieldErrors' },
    onSuccess: (saved) => {
      queryClient.setQueryData<InvoiceSellerEntry[]>(billingKeys.sellers(), (entries) =>
        entries?.map((entry) => (entry.whitelabel.id === saved.whitelabel.id ? saved : entry)),
      );
      return queryClient.invalidateQueries({ queryKey: billingKeys.sellers() });
    },
  });
}
