import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, Outlet, RouterProvider } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { Role } from '@tankportal/shared/roles';
import { setUnauthorizedHandler } from '../lib/api-client.ts';
import { CURRENT_USER_KEY } from '../lib/session.ts';
import { loadAllTexts } from '../lib/i18n.ts';
import { Loading } from '../components/loading.tsx';
import { RouteError } from '../components/route-error.tsx';
import { RequireRole, RequireSecondFactorEnrolment, RequireVisitor } from './guards.tsx';

// Every page is its own chunk: the login page loads none of the signed-in app, nor the
// texts of its areas; the signed-in app and the public page render once those are there.
const withAllTexts = <T,>(page: Promise<T>) => Promise.all([page, loadAllTexts()]).then(([module]) => module);
const LoginPage = lazy(() => import('../features/auth/components/login-page.tsx'));
const SignedInApp = lazy(() => withAllTexts(import('./signed-in-app.tsx')));
const DevicesRoutes = lazy(() => import('./routes/devices-routes.tsx'));
const PublicStatusPage = lazy(() =>
  withAllTexts(import('../features/devices/components/public/public-status-page.tsx')),
);
const UsersRoutes = lazy(() => import('../features/users/components/users-routes.tsx'));
const MessagesPage = lazy(() => import('../features/messages/components/messages-page.tsx'));
const ContactsPage = lazy(() => import('../features/contacts/components/contacts-page.tsx'));
const ProfilePage = lazy(() => import('../features/settings/components/profile-page.tsx'));
const CredentialsDialog = lazy(() => import('../features/settings/components/credentials-dialog.tsx'));
const SessionsPage = lazy(() => import('../features/settings/components/sessions-page.tsx'));
const SecondFactorPage = lazy(() => import('../features/settings/components/second-factor-page.tsx'));
// Before the signed-in app: a user held back for its second factor loads nothing else.
const SecondFactorRequiredPage = lazy(() =>
  withAllTexts(import('./routes/second-factor-required-route.tsx')),
);
const SystemNotificationsPage = lazy(
  () => import('../features/system/components/system-notifications-page.tsx'),
);
const SystemBillingPage = lazy(() => import('./routes/system-billing-route.tsx'));
const UnassignedDevicesPage = lazy(() => import('../features/system/components/unassigned-devices-page.tsx'));
const WeatherStationsPage = lazy(() => import('../features/system/components/weather-stations-page.tsx'));
const SystemChangesPage = lazy(() => import('../features/system/components/changes-page.tsx'));
const SystemJobsPage = lazy(() => import('../features/system/components/jobs-page.tsx'));
const OrdersPage = lazy(() => import('../features/orders/components/orders-page.tsx'));
const ToursRoutes = lazy(() => import('../features/tours/components/tours-routes.tsx'));
// The driver's phone page stands outside the signed-in shell: without a connection it shows the
// tours kept on the phone, where the shell would wait for the user (its API calls lead to the login).
const DriverPage = lazy(() => withAllTexts(import('../features/driver/components/driver-page.tsx')));

const guarded = (minimum: Role, element: ReactNode) => <RequireRole minimum={minimum}>{element}</RequireRole>;

// Every level of the tree has an error element: an error in a page is caught
// next to it, so the shell around it stays; the signed-in pages offer the way back to the list.
const pageError = <RouteError back />;

/** The routes and their minimum roles; anything else goes to /devices. */
const router = createBrowserRouter([
  {
    element: (
      <Suspense fallback={<Loading />}>
        <Outlet />
      </Suspense>
    ),
    errorElement: <RouteError />,
    children: [
      {
        path: '/login',
        errorElement: <RouteError />,
        element: (
          <RequireVisitor>
            <LoginPage />
          </RequireVisitor>
        ),
      },
      {
        path: '/second-factor',
        errorElement: <RouteError />,
        element: (
          <RequireSecondFactorEnrolment>
            <SecondFactorRequiredPage />
          </RequireSecondFactorEnrolment>
        ),
      },
      // The public status page of one device (its unguessable link): no session, nothing else.
      { path: '/public/:token', element: <PublicStatusPage />, errorElement: <RouteError /> },
      { path: '/driver', element: <DriverPage />, errorElement: <RouteError /> },
      {
        element: guarded('ROLE_DEMO', <SignedInApp />),
        errorElement: pageError,
        children: [
          { path: '/devices/*', element: <DevicesRoutes />, errorElement: pageError },
          { path: '/users/*', element: guarded('ROLE_ADMIN', <UsersRoutes />), errorElement: pageError },
          { path: '/messages/*', element: guarded('ROLE_ADMIN', <MessagesPage />), errorElement: pageError },
          { path: '/contacts/*', element: guarded('ROLE_USER', <ContactsPage />), errorElement: pageError },
          { path: '/orders', element: guarded('ROLE_ADMIN', <OrdersPage />), errorElement: pageError },
          { path: '/tours/*', element: guarded('ROLE_ADMIN', <ToursRoutes />), errorElement: pageError },
          {
            path: '/settings',
            element: guarded('ROLE_USER', <Outlet />),
            errorElement: pageError,
            children: [
              {
                element: <ProfilePage />,
                errorElement: pageError,
                children: [
                  { index: true, element: null },
                  { path: 'credentials', element: <CredentialsDialog />, errorElement: pageError },
                ],
              },
              { path: 'sessions', element: <SessionsPage />, errorElement: pageError },
              { path: 'second-factor', element: <SecondFactorPage />, errorElement: pageError },
              { path: 'contacts/*', element: <ContactsPage />, errorElement: pageError },
            ],
          },
          {
            path: '/system',
            element: guarded('ROLE_MASTER', <Navigate to="/system/notifications" replace />),
          },
          {
            path: '/system/notifications/*',
            element: guarded('ROLE_MASTER', <SystemNotificationsPage />),
            errorElement: pageError,
          },
          {
            path: '/system/billing/*',
            element: guarded('ROLE_MASTER', <SystemBillingPage />),
            errorElement: pageError,
          },
          {
            path: '/system/unassigned-devices',
            element: guarded('ROLE_MASTER', <UnassignedDevicesPage />),
            errorElement: pageError,
          },
          {
            path: '/system/weather-stations/*',
            element: guarded('ROLE_MASTER', <WeatherStationsPage />),
            errorElement: pageError,
          },
          {
            path: '/system/changes',
            element: guarded('ROLE_MASTER', <SystemChangesPage />),
            errorElement: pageError,
          },
          {
            path: '/system/jobs',
            element: guarded('ROLE_MASTER', <SystemJobsPage />),
            errorElement: pageError,
          },
          { path: '*', element: <Navigate to="/devices" replace /> },
        ],
      },
    ],
  },
]);

export function AppRouter() {
  const queryClient = useQueryClient();
  useEffect(() => {
    // A 401 anywhere: the session is gone; the guards then send the user to /login.
    setUnauthorizedHandler(() => {
      queryClient.setQueryData(CURRENT_USER_KEY, null);
      void router.navigate('/login', { state: { from: window.location.pathname + window.location.search } });
    });
  }, [queryClient]);
  return <RouterProvider router={router} />;
}
