/** The list's state before anything is chosen (the white-label's display settings may override). */
export const DEVICE_LIST_DEFAULTS = {
  searchTerm: '',
  sortBy: 'id',
  sortDesc: false,
  grouped: false,
  page: 1,
  perPage: 25,
};
