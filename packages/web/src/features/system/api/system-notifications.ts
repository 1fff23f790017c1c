import { useQuery } from '@tanstack/react-query';
import type { NotificationSeverity } from '@tankportal/shared/constants';
import { api } from '../../../lib/api-client.ts';

export interface SystemNotification {
  id: number;
  message: string;
  severity: NotificationSeverity;
  createdAt: string;
}

export function useSystemNotifications() {
  return useQuery({
    queryKey: ['system-notifications'],
    queryFn: () => api<SystemNotification[]>('GET', '/v2/system-notifications'),
    staleTime: 60_000,
  });
}
