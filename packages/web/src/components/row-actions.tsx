import { Link as RouterLink } from 'react-router';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';

export interface EditDeleteActionsProps {
  /** Where the edit dialog of the row opens. */
  editTo: string;
  onDelete: () => void;
  editLabel: string;
  deleteLabel: string;
  /** Names the row in the buttons' accessible names ("Edit: Alice"). */
  name: string;
}

/** A table row's edit link and delete button, each with its tooltip. */
export function EditDeleteActions({
  editTo,
  onDelete,
  editLabel,
  deleteLabel,
  name,
}: EditDeleteActionsProps) {
  return (
    <>
      <Tooltip title={editLabel}>
        <IconButton component={RouterLink} to={editTo} size="small" aria-label={`${editLabel}: ${name}`}>
          <EditIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={deleteLabel}>
        <IconButton size="small" onClick={onDelete} aria-label={`${deleteLabel}: ${name}`}>
          <DeleteIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </>
  );
}
