import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { hasRole, type Role } from '@tankportal/shared/roles';
import { useCurrentUser } from '../lib/session.ts';
import { Loading } from '../components/loading.tsx';

/**
 * Route guards: not signed in -> /login (remembering where the user wanted to go);
 * signed in below the minimum role -> /devices.
 */
export function RequireRole({ minimum, children }: { minimum: Role; children: ReactNode }) {
  const { data: user, isPending } = useCurrentUser();
  const location = useLocation();
  if (isPending) return <Loading />;
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  // The white-label requires a second factor the user has not set up: nothing else before it.
  if (user.secondFactorEnrolmentRequired) return <Navigate to="/second-factor" replace />;
  if (!hasRole(user.role, minimum)) return <Navigate to="/devices" replace />;
  return children;
}

/** /second-factor is only for a signed-in user the white-label holds back until its factor is set up. */
export function RequireSecondFactorEnrolment({ children }: { children: ReactNode }) {
  const { data: user, isPending } = useCurrentUser();
  if (isPending) return <Loading />;
  if (!user) return <Navigate to="/login" replace />;
  if (!user.secondFactorEnrolmentRequired) return <Navigate to="/devices" replace />;
  return children;
}

/** /login is only for visitors; a signed-in user goes on to the page it came for, else /devices. */
export function RequireVisitor({ children }: { children: ReactNode }) {
  const { data: user, isPending } = useCurrentUser();
  const from = (useLocation().state as { from?: string } | null)?.from;
  if (isPending) return <Loading />;
  if (user) return <Navigate to={from ?? '/devices'} replace />;
  return children;
}
