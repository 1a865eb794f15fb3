// ViewScreenPreview?pageId — a screen as its viewers see it.
import { Preview } from '../../datav/Preview';

export default function ScreenPreview() {
  return <Preview kind="screen" />;
}
