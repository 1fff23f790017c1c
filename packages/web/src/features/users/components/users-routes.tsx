import { Route, Routes } from 'react-router';
import { CreateUserDialog } from './create-user-dialog.tsx';
import { UserArea } from './user-area.tsx';
import UsersPage from './users-page.tsx';

/** /users/*: the tree, /users/new over it, and the pages of one user. */
export default function UsersRoutes() {
  return (
    <Routes>
      <Route index element={<UsersPage />} />
      <Route
        path="new"
        element={
          <>
            <UsersPage />
            <CreateUserDialog />
          </>
        }
      />
      <Route path=":userId/*" element={<UserArea />} />
    </Routes>
  );
}
