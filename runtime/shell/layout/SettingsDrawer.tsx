// Layout settings: theme colour (antd theme token, no remote stylesheet), navigation position,
// tabs, and the help / message icons (hidden by default). All persisted.
import { CheckOutlined } from '@ant-design/icons';
import { Divider, Drawer, Radio, Space, Switch, Tooltip, Typography } from 'antd';
import { useStore } from '../../core/store';
import { settingsStore, THEME_COLORS, updateSettings } from '../state';

const COLOR_NAMES = ['拂晓蓝（默认）', '薄暮红', '火山橙', '日暮橙', '金盏黄', '极光绿', '明青', '极客蓝', '酱紫', '法式洋红'];

export function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const s = useStore(settingsStore);
  return (
    <Drawer title="布局设置" open={open} onClose={onClose} width={300}>
      <Typography.Text strong>主题颜色</Typography.Text>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, margin: '12px 0' }} data-testid="theme-colors">
        {THEME_COLORS.map((c, i) => (
          <Tooltip title={COLOR_NAMES[i]} key={c}>
            <button
              type="button"
              aria-label={COLOR_NAMES[i]}
              data-color={c}
              onClick={() => updateSettings({ themeColor: c })}
              style={{ width: 28, height: 28, borderRadius: 4, border: 'none', background: c, cursor: 'pointer', color: '#fff' }}
            >
              {s.themeColor === c ? <CheckOutlined /> : null}
            </button>
          </Tooltip>
        ))}
      </div>
      <Divider />
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <div>
          <Typography.Text strong>导航位置</Typography.Text>
          <div style={{ marginTop: 8 }}>
            <Radio.Group value={s.topNav ? 'top' : 'side'} onChange={(e) => updateSettings({ topNav: e.target.value === 'top' })}>
              <Radio.Button value="side">侧边导航</Radio.Button>
              <Radio.Button value="top">顶部导航</Radio.Button>
            </Radio.Group>
          </div>
        </div>
        <Row label="显示标签页" checked={s.tagsView} onChange={(v) => updateSettings({ tagsView: v })} />
        <Row label="显示帮助图标" checked={s.showHelp} onChange={(v) => updateSettings({ showHelp: v })} />
        <Row label="显示消息图标" checked={s.showMessage} onChange={(v) => updateSettings({ showMessage: v })} />
      </Space>
    </Drawer>
  );
}

function Row({ label, checked, onChange }: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
      <span>{label}</span>
      <Switch checked={checked} onChange={onChange} aria-label={label} />
    </div>
  );
}
