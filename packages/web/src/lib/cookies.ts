import Cookies from 'js-cookie';
import { LAST_USERNAME_COOKIE } from '@tankportal/shared/constants';

/** The last used username, remembered for a year. */
export const lastUsername = {
  get: () => Cookies.get(LAST_USERNAME_COOKIE) ?? '',
  set: (username: string) =>
    Cookies.set(LAST_USERNAME_COOKIE, username, { expires: 365, sameSite: 'Strict' }),
};
