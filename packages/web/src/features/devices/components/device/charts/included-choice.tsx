import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** Checkboxes that leave items out (each in its colour); the unchecked ones are the excluded. */
export function IncludedChoice<T extends number>({
  label,
  hideLabel = false,
  items,
  excluded,
  onChange,
}: {
  label: string;
  /** The label only names the group for assistive technology (e.g. a chart legend). */
  hideLabel?: boolean;
  items: { id: T; label: string; color: string }[];
  excluded: readonly T[];
  onChange: (excluded: T[]) => void;
}) {
  return (
    <Stack
      direction="row"
      flexWrap="wrap"
      useFlexGap
      columnGap={2}
      alignItems="center"
      role="group"
      aria-label={label}
    >
      {!hideLabel && (
        <Typography variant="body2" color="text.secondary" sx={{ mr: 1 }}>
          {label}:
        </Typography>
      )}
      {items.map((item) => (
        <FormControlLabel
          key={item.id}
          label={item.label}
          control={
            <Checkbox
              checked={!excluded.includes(item.id)}
              onChange={(event) =>
                onChange(
                  event.target.checked ? excluded.filter((id) => id !== item.id) : [...excluded, item.id],
                )
              }
              sx={{ color: item.color, '&.Mui-checked': { color: item.color } }}
            />
          }
        />
      ))}
    </Stack>
  );
}
