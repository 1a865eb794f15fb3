/** What a JSON editor of the property panel takes (the monaco one and the plain stand-in alike). */
export interface JsonEditorProps {
  value: string;
  onChange?: (text: string) => void;
  height?: number;
  readOnly?: boolean;
  ariaLabel?: string;
}
