// ViewFormDesign?pageId (or formId) — the form designer: the screen designer in its form configuration.
import { DesignerHost } from '../../datav/DesignerHost';

export default function FormDesign() {
  return <DesignerHost kind="form" />;
}
