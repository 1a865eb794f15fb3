import { useState } from 'react';
import { Button, Input, Space } from 'antd';
import { useCrudServices } from '../services';
import { parseCall } from '../template';

interface Props {
  value?: string;
  onChange?: (v: string) => void;
  disabled?: boolean;
  placeholder?: string;
  /** e.g. "GET /gemini/datasource/encrypt" */
  api?: string;
  /** query parameter carrying the plain password, declared beside the api */
  param: string;
  maxLength?: number;
}

/** Password input with an encrypt button that swaps the plain text for the server's ciphertext. */
export function EncryptPassword({ value, onChange, disabled, placeholder, api, param, maxLength }: Props) {
  const services = useCrudServices();
  const [busy, setBusy] = useState(false);
  const encrypt = async () => {
    if (!api || !value) return;
    setBusy(true);
    try {
      const { method, path } = parseCall(api);
      const cipher = await services.request<string>(method, path, { params: { [param]: value } });
      if (typeof cipher === 'string') onChange?.(cipher);
    } catch {
      // the request layer already showed the error
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input.Password
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        disabled={disabled}
        placeholder={placeholder}
        maxLength={maxLength}
        autoComplete="new-password"
      />
      {api && (
        <Button onClick={encrypt} loading={busy} disabled={disabled || !value} data-testid="encrypt-btn">
          加密
        </Button>
      )}
    </Space.Compact>
  );
}
