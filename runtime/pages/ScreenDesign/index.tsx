// ViewScreenDesign?pageId — the screen designer (spec part 2 "Screen designer").
import { DesignerHost } from '../../datav/DesignerHost';

export default function ScreenDesign() {
  return <DesignerHost kind="screen" />;
}
