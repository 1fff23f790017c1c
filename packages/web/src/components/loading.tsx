import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

export function Loading() {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }} role="progressbar">
      <CircularProgress />
    </Box>
  );
}
