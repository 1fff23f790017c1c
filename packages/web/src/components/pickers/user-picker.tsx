import { useTranslation } from 'react-i18next';
import { USER_FILTER_DEBOUNCE_MS } from '@tankportal/shared/constants';
import { USER_LOOKUP_DEFAULT_PER_PAGE, type UserOption } from '@tankportal/shared/schemas/users-lookup';
import { searchPickerUsers, userKeys } from '../../lib/api/users.ts';
import { SearchPicker, type PickerFieldProps } from './search-picker.tsx';

/** One entry of `GET /v2/users`: a user the signed-in user manages. */
export type PickedUser = UserOption;

export interface UserPickerProps extends PickerFieldProps<PickedUser> {
  /** Users not to offer (already granted, the actor itself). */
  exclude?: readonly number[];
  /** Not to offer this user nor anybody below it (the parents it may be moved under). */
  outsideSubtreeOf?: number;
}

export const userPickerLabel = (user: PickedUser) =>
  user.name ? `${user.username} (${user.name})` : user.username;

/**
 * The shared user selector: searches the users the signed-in user manages by
 * `GET /v2/users` once typing has paused, leaving out the excluded ones on the server.
 */
export function UserPicker({ exclude, outsideSubtreeOf, ...field }: UserPickerProps) {
  const { t } = useTranslation();
  const filter = {
    perPage: USER_LOOKUP_DEFAULT_PER_PAGE,
    exclude: exclude?.length ? [...exclude].sort((a, b) => a - b).join(',') : undefined,
    outsideSubtreeOf,
  };
  return (
    <SearchPicker
      {...field}
      source={{
        search: {
          queryKey: userKeys.picker(filter),
          debounceMs: USER_FILTER_DEBOUNCE_MS,
          fetch: (searchTerm, signal) => searchPickerUsers(filter, searchTerm, signal),
        },
      }}
      getOptionLabel={userPickerLabel}
      texts={{
        label: t('pickers.user.label'),
        placeholder: t('pickers.user.placeholder'),
        loading: t('pickers.user.loading'),
        noOptions: t('pickers.user.noOptions'),
      }}
    />
  );
}
