import { useTranslation } from 'react-i18next';
import Pagination, { type PaginationProps } from '@mui/material/Pagination';

const STEP_LABELS = {
  first: 'pages.firstPage',
  last: 'pages.lastPage',
  next: 'pages.nextPage',
  previous: 'pages.previousPage',
  'start-ellipsis': 'pages.morePages',
  'end-ellipsis': 'pages.morePages',
} as const;

interface NumberedPagesProps {
  /** How many pages there are. */
  count: number;
  page: number;
  onPageChange: (page: number) => void;
  siblingCount?: PaginationProps['siblingCount'];
}

/**
 * The numbered pages under a counted list, their buttons named in the user's language for screen
 * readers (MUI names them in English: "Go to page 2").
 */
export function NumberedPages({ count, page, onPageChange, siblingCount }: NumberedPagesProps) {
  const { t } = useTranslation();
  return (
    <Pagination
      count={count}
      page={page}
      onChange={(_event, next) => onPageChange(next)}
      siblingCount={siblingCount}
      sx={{ alignSelf: 'center' }}
      getItemAriaLabel={(type, number, selected) =>
        type === 'page'
          ? t(selected ? 'pages.currentPage' : 'pages.goToPage', { page: number })
          : t(STEP_LABELS[type])
      }
    />
  );
}
