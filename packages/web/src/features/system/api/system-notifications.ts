import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SystemNotificationBody } from '@tankportal/shared/schemas/system-notifications';
import type { NotificationSeverity } from '@tankportal/shared/constants';
import { api } from '../../../lib/api-client.ts';

export interface SystemNotification {
  id: number;
  message: string;
  severity: NotificationSeverity;
  createdAt: string;
}

const KEY = ['system-notifications'] as const;

export function useSystemNotifications() {
  return useQuery({
    queryKey: KEY,
    queryFn: () => api<SystemNotification[]>('GET', '/v2/system-notifications'),
    staleTime: 60_000,
  });
}

/** Create (POST) and revoke (DELETE), masters only; the top bar's list shows the change at once. */
export function useSystemNotificationMutations() {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: KEY });
  return {
    create: useMutation({
      mutationFn: (body: SystemNotificationBody) =>
        api<SystemNotification>('POST', '/v2/system-notifications', { body }),
      onSuccess,
      meta: { errorToast: 'unlessFieldErrors' },
    }),
    revoke: useMutation({
      mutationFn: (id: number) => api<void>('DELETE', `/v2/system-notifications/${id}`),
      onSuccess,
    }),
  };
}
