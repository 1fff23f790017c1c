import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import SearchIcon from '@mui/icons-material/Search';
import { DEVICE_SEARCH_DEBOUNCE_MS } from '@tankportal/shared/constants';
import { useDebouncedCallback } from '../../../../lib/use-debounce.ts';

/**
 * The list's text filter: typing shows at once, the list asks the server once typing has paused
 * for 600 ms. A term set from outside (the top bar search) replaces the text.
 */
export function ListFilter({ term, onChange }: { term: string; onChange: (term: string) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(term);
  const [shownTerm, setShownTerm] = useState(term);
  if (term !== shownTerm) {
    setShownTerm(term);
    setText(term);
  }
  const commit = useDebouncedCallback(onChange, DEVICE_SEARCH_DEBOUNCE_MS);
  return (
    <TextField
      size="small"
      type="search"
      label={t('devices.list.filter')}
      placeholder={t('devices.list.filterHint')}
      value={text}
      onChange={(event) => {
        setText(event.target.value);
        commit(event.target.value);
      }}
      // The hint fits whole from 390 px up.
      sx={{ minWidth: 'min(100%, 300px)', flex: '1 1 340px', maxWidth: 440 }}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
