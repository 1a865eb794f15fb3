// The page's dialog while an action has one open: the upload dialog, or the add / copy / edit form.
import type { ActionDecl, DialogMode, PageDeclaration, Row } from './types';
import { FormDialog } from './FormDialog';
import { UploadDialog } from './UploadDialog';

export interface DialogState {
  mode: DialogMode;
  row?: Row;
  action: ActionDecl;
  /** values a new record starts with over the declared defaults (a child row's parent) */
  preset?: Row;
}

interface Props {
  page: PageDeclaration;
  state: DialogState | null;
  rowKey: string;
  /** the call that saves: `add` (falling back to `save`) for new and copied records, `save` for edits */
  saveCall: string | undefined;
  onSaved: () => void;
  onClose: () => void;
}

export function Dialogs({ page, state, rowKey, saveCall, onSaved, onClose }: Props) {
  if (!state || !page.dialog) return null;
  if (page.dialog.kind === 'upload') return <UploadDialog dialog={page.dialog} pageTitle={page.title} onSaved={onSaved} onClose={onClose} />;
  return (
    <FormDialog
      dialog={page.dialog}
      mode={state.mode}
      row={state.row}
      preset={state.preset}
      rowKey={rowKey}
      pageTitle={page.title}
      saveCall={saveCall}
      successText={state.action.success}
      onSaved={onSaved}
      onClose={onClose}
    />
  );
}
