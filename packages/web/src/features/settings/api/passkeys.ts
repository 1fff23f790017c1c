import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import type { PasskeySummary, RemovePasskeyBody, WebAuthnOptions } from '@tankportal/shared/schemas/passkeys';
import { api } from '../../../lib/api-client.ts';

const PASSKEYS_KEY = ['second-factor', 'passkeys'] as const;

/** GET /v2/users/me/passkeys: the own passkeys, oldest first. */
export function usePasskeys() {
  return useQuery({
    queryKey: PASSKEYS_KEY,
    queryFn: ({ signal }) => api<PasskeySummary[]>('GET', '/v2/users/me/passkeys', { signal }),
  });
}

/**
 * Adds a passkey: the server's options, the browser's `create()` (the person confirms with the
 * device), the answer sent back as JSON text with the chosen name. A refusal or cancel in the
 * browser rejects with its WebAuthnError, not an ApiError.
 */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      const options = await api<WebAuthnOptions>('POST', '/v2/users/me/passkeys/options');
      const answer = await startRegistration({
        optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
      });
      return api<PasskeySummary>('POST', '/v2/users/me/passkeys', {
        body: { name, credential: JSON.stringify(answer) },
      });
    },
    meta: { errorToast: false },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY }),
  });
}

/** DELETE /v2/users/me/passkeys/{id} with the password. */
export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, password }: RemovePasskeyBody & { id: number }) =>
      api<void>('DELETE', `/v2/users/me/passkeys/${id}`, { body: { password } }),
    meta: { errorToast: 'unlessFieldErrors' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY }),
  });
}
