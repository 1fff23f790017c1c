import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DisableSecondFactorBody,
  RecoveryCodesAnswer,
  SecondFactorEnrolment,
  SecondFactorPolicy,
  SecondFactorStatus,
} from '@tankportal/shared/schemas/second-factor';
import { api } from '../../../lib/api-client.ts';
import { CURRENT_USER_KEY } from '../../../lib/session.ts';

const STATUS_KEY = ['second-factor', 'own'] as const;
const POLICY_KEY = ['second-factor', 'policy'] as const;

/** GET /v2/users/me/second-factor: active or not, recovery codes left, required or not. */
export function useSecondFactorStatus() {
  return useQuery({
    queryKey: STATUS_KEY,
    queryFn: ({ signal }) => api<SecondFactorStatus>('GET', '/v2/users/me/second-factor', { signal }),
  });
}

/** POST /v2/users/me/second-factor: a new secret to scan; nothing changes until it is confirmed. */
export function useBeginEnrolment() {
  return useMutation({
    mutationFn: () => api<SecondFactorEnrolment>('POST', '/v2/users/me/second-factor'),
  });
}

/**
 * POST …/confirmation: the first code makes the factor active and answers the recovery codes. The
 * status is read again only once they are put away (the page showing them stays until then).
 */
export function useConfirmEnrolment() {
  return useMutation({
    mutationFn: (code: string) =>
      api<RecoveryCodesAnswer>('POST', '/v2/users/me/second-factor/confirmation', { body: { code } }),
    meta: { errorToast: 'unlessFieldErrors' },
  });
}

/** The signed-in user read again once the recovery codes are put away (the enrolment hold ends). */
export function useRefreshCurrentUser() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
}

/** DELETE /v2/users/me/second-factor with the password or a current code. */
export function useDisableSecondFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DisableSecondFactorBody) =>
      api<void>('DELETE', '/v2/users/me/second-factor', { body }),
    meta: { errorToast: 'unlessFieldErrors' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: STATUS_KEY }),
  });
}

/** The white-label's policy (masters): a second factor from admin up. */
export function useSecondFactorPolicy(enabled: boolean) {
  return useQuery({
    queryKey: POLICY_KEY,
    queryFn: ({ signal }) =>
      api<SecondFactorPolicy>('GET', '/v2/whitelabels/current/second-factor-policy', { signal }),
    enabled,
  });
}

export function useSetSecondFactorPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SecondFactorPolicy) =>
      api<SecondFactorPolicy>('PUT', '/v2/whitelabels/current/second-factor-policy', { body }),
    onSuccess: (policy) => {
      queryClient.setQueryData(POLICY_KEY, policy);
      return queryClient.invalidateQueries({ queryKey: STATUS_KEY });
    },
  });
}
