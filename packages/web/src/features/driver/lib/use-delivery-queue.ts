import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { sendDelivered } from '../api/driver-tours.ts';
import { DeliveryQueue, QUEUE_KEY } from './delivery-queue.ts';

/** How often waiting entries are tried again while the page is open (besides the online event). */
const RETRY_MS = 15_000;

let queue: DeliveryQueue | null = null;
/** One queue per tab, on the phone's storage. */
export function deliveryQueue(): DeliveryQueue {
  queue ??= new DeliveryQueue(localStorage, sendDelivered);
  return queue;
}

/**
 * The queue's entries for the page, and its sending: at once, whenever the browser says it is
 * online again, every RETRY_MS while an entry waits, and when another tab changed it. Once an
 * entry is sent the tours are asked for again (the stop then shows the server's delivery).
 */
export function useDeliveryQueue() {
  const current = deliveryQueue();
  const entries = useSyncExternalStore(current.subscribe, current.entries);
  const queryClient = useQueryClient();
  const waiting = entries.some((entry) => entry.state === 'waiting');
  const settled = entries.filter((entry) => entry.state !== 'waiting').length;
  useEffect(() => {
    const flush = () => void current.flush();
    const other = (event: StorageEvent) => event.key === QUEUE_KEY && current.reload();
    window.addEventListener('online', flush);
    window.addEventListener('storage', other);
    flush();
    return () => {
      window.removeEventListener('online', flush);
      window.removeEventListener('storage', other);
    };
  }, [current]);
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => void current.flush(), RETRY_MS);
    return () => clearInterval(timer);
  }, [current, waiting]);
  useEffect(() => {
    if (settled) void queryClient.invalidateQueries({ queryKey: ['driver', 'tours'] });
  }, [settled, queryClient]);
  return { queue: current, entries };
}
