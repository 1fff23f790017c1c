import { useQuery } from '@tanstack/react-query';
import { ApiError, apiResponse } from '../../../lib/api-client.ts';
import { today } from '../../../lib/format.ts';
import type { DeliveryEntry } from '../lib/delivery-queue.ts';
import type { DriverTour } from './types.ts';

export const TOURS_KEY = 'tp-driver-tours';

interface StoredTours {
  day: string;
  loadedAt: string;
  tours: DriverTour[];
}

export interface DriverToursView extends StoredTours {
  /** Shown from the phone's copy: the server could not be reached. */
  offline: boolean;
}

function storedTours(): StoredTours | null {
  try {
    const stored = JSON.parse(localStorage.getItem(TOURS_KEY) ?? 'null') as StoredTours | null;
    return stored && Array.isArray(stored.tours) ? stored : null;
  } catch {
    return null;
  }
}

/** No answer, or one a moment later may change: the phone's copy stands in. */
const unreachable = (error: unknown) =>
  error instanceof ApiError && (error.status === 0 || error.status === 408 || error.status >= 500);

/**
 * `GET /v2/driver/tours?day=`: the signed-in driver's tours of today with their stops. Each answer
 * is kept on the phone; without a connection the kept one is shown (a reload on the road still
 * shows the tour). A 401 leads to the login as anywhere else.
 */
export function useDriverTours() {
  const day = today();
  return useQuery({
    queryKey: ['driver', 'tours', day],
    queryFn: async ({ signal }): Promise<DriverToursView> => {
      try {
        const { data } = await apiResponse<DriverTour[]>('GET', '/v2/driver/tours', {
          query: { day },
          signal,
        });
        const fresh = { day, loadedAt: new Date().toISOString(), tours: data };
        try {
          localStorage.setItem(TOURS_KEY, JSON.stringify(fresh));
        } catch {
          // A full storage: the tour shows, it is just not kept.
        }
        return { ...fresh, offline: false };
      } catch (error) {
        const stored = storedTours();
        if (stored && unreachable(error)) return { ...stored, offline: true };
        if (error instanceof ApiError && error.status === 401) localStorage.removeItem(TOURS_KEY);
        throw error;
      }
    },
    // Without a connection TanStack Query would hold the query back; the phone's copy answers then.
    networkMode: 'always',
    retry: false,
    refetchOnWindowFocus: true,
  });
}

/**
 * `POST /v2/driver/stops/{id}/delivered`: the HTTP status of the answer; rejects without one.
 * The server records a clientEntryId once, so the queue may send it again after a lost answer.
 */
export async function sendDelivered(entry: DeliveryEntry): Promise<number> {
  try {
    const { status } = await apiResponse<unknown>('POST', `/v2/driver/stops/${entry.stopId}/delivered`, {
      body: {
        ticketQuantity: entry.ticketQuantity,
        deliveredAt: entry.deliveredAt,
        clientEntryId: entry.clientEntryId,
      },
    });
    return status;
  } catch (error) {
    if (error instanceof ApiError && error.status !== 0) return error.status;
    throw error;
  }
}
