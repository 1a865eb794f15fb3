// ViewFormPreview?pageId (or formId) — a form as its viewers see it.
import { Preview } from '../../datav/Preview';

export default function FormPreview() {
  return <Preview kind="form" />;
}
