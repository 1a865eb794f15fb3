// The page's dialog while an action has one open: the upload dialog, the add / copy / edit form, an action's own
// form (`form`), or a value a call answered once (`result`).
import type { ActionDecl, DialogDecl, DialogMode, PageDeclaration, Row } from './types';
import { FormDialog } from './FormDialog';
import { UploadDialog } from './UploadDialog';
import { ImportDialog } from './ImportDialog';
import { SheetImportDialog } from './SheetImportDialog';
import { RevealModal } from './RevealModal';
import { actionLabel, pageApi } from './actions';
import { msg } from './messages';
import { fill } from './template';

export interface DialogState {
  mode: DialogMode;
  row?: Row;
  action: ActionDecl;
  /** values a new record starts with over the declared defaults (a child row's parent) */
  preset?: Row;
  /** an action's form: sends its values with the action's call */
  submit?: (values: Row) => Promise<unknown>;
  /** the value `action.result` shows once */
  revealed?: string;
  /** another declared page whose add dialog this is, saved by its own call (action=add with `page`) */
  page?: PageDeclaration;
}

/** An action's `form` as a dialog declaration (its result revealed as a saved key is); its title filled from the row. */
function actionDialog(a: ActionDecl, row: Row | undefined): DialogDecl {
  const form = a.form!;
  return {
    width: form.width,
    titles: { new: form.title ? fill(form.title, row ?? {}) : actionLabel(a) },
    defaults: form.defaults,
    schema: form.schema as DialogDecl['schema'],
    ...(a.result ? { reveal: a.result as NonNullable<DialogDecl['reveal']> } : {}),
  };
}

interface Props {
  page: PageDeclaration;
  state: DialogState | null;
  rowKey: string;
  /** the call that saves: `add` (falling back to `save`) for new and copied records, `save` for edits */
  saveCall: string | undefined;
  onSaved: () => void;
  onClose: () => void;
  /** after an action's form was sent (the list reloads unless the action says refresh: false) */
  onSent: (a: ActionDecl) => void;
}

export function Dialogs({ page, state, rowKey, saveCall, onSaved, onClose, onSent }: Props) {
  if (!state) return null;
  if (state.action.action === 'import' && state.action.import) {
    return (
      <ImportDialog
        action={state.action}
        onDone={() => {
          onSent(state.action);
          onClose();
        }}
        onClose={onClose}
      />
    );
  }
  const sheetCall = state.action.action === 'import' && !state.action.import ? (state.action.api ?? pageApi(page).import) : undefined;
  if (sheetCall) {
    return (
      <SheetImportDialog
        action={state.action}
        call={sheetCall}
        onDone={() => {
          onSent(state.action);
          onClose();
        }}
        onClose={onClose}
      />
    );
  }
  if (state.revealed !== undefined && state.action.result) return <RevealModal decl={state.action.result} value={state.revealed} onClose={onClose} />;
  if (state.submit && state.action.form) {
    return (
      <FormDialog
        dialog={actionDialog(state.action, state.row)}
        mode="new"
        preset={state.preset}
        rowKey={rowKey}
        pageTitle={page.title}
        submit={state.submit}
        successText={state.action.success ?? msg('submitSuccess')}
        onSaved={() => onSent(state.action)}
        onClose={onClose}
      />
    );
  }
  const declared = state.page ?? page;
  if (!declared.dialog) return null;
  if (declared.dialog.kind === 'upload') return <UploadDialog dialog={declared.dialog} pageTitle={declared.title} onSaved={onSaved} onClose={onClose} />;
  return (
    <FormDialog
      dialog={declared.dialog}
      mode={state.mode}
      row={state.row}
      preset={state.preset}
      rowKey={state.page ? (state.page.rowKey ?? 'id') : rowKey}
      pageTitle={declared.title}
      saveCall={state.page ? (pageApi(state.page).add ?? pageApi(state.page).save) : saveCall}
      optionsCall={pageApi(declared).options}
      successText={state.action.success}
      onSaved={onSaved}
      onClose={onClose}
    />
  );
}
