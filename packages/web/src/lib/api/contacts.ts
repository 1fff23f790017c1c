import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Contact, ContactBody } from '@tankportal/shared/schemas/contacts';
import { api } from '../api-client.ts';

// The contact calls, in one place for the contacts pages, the contact picker and
// the recipient dialog of the device settings.

export type { Contact, ContactBody };

/**
 * The query keys of the contacts: every one starts with `contactKeys.all`, so one invalidation
 * refreshes them all (a recipient change alters the contacts' device counts too).
 */
export const contactKeys = {
  all: ['contacts'] as const,
  list: () => [...contactKeys.all, 'list'] as const,
  one: (contactId: number | null) => [...contactKeys.all, 'detail', contactId] as const,
};

/** GET /v2/contacts: the signed-in user's contacts, sorted by handle. */
export function useContacts() {
  return useQuery({
    queryKey: contactKeys.list(),
    queryFn: ({ signal }) => api<Contact[]>('GET', '/v2/contacts', { signal }),
  });
}

/** GET /v2/contacts/{id}; not retried: a 404 closes the edit dialog at once. */
export function useContact(contactId: number | null) {
  return useQuery({
    queryKey: contactKeys.one(contactId),
    queryFn: ({ signal }) => api<Contact>('GET', `/v2/contacts/${contactId}`, { signal }),
    enabled: contactId !== null,
    retry: false,
  });
}

/** POST /v2/contacts; the answer is the new contact. */
export function useCreateContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ContactBody) => api<Contact>('POST', '/v2/contacts', { body }),
    // A form maps the server's field errors onto its fields; other failures toast.
    meta: { errorToast: 'unlessFieldErrors' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactKeys.all }),
  });
}

/** PUT /v2/contacts/{id}; the answer is the saved contact. */
export function useUpdateContact(contactId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ContactBody) => api<Contact>('PUT', `/v2/contacts/${contactId}`, { body }),
    // A form maps the server's field errors onto its fields; other failures toast.
    meta: { errorToast: 'unlessFieldErrors' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactKeys.all }),
  });
}

/** DELETE /v2/contacts/{id}: its notification recipients go with it. */
export function useDeleteContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (contactId: number) => api<void>('DELETE', `/v2/contacts/${contactId}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactKeys.all }),
  });
}
