import type { Meta, StoryObj } from '@storybook/react-vite';
import { DesignerDemo } from './DesignerDemo';

// 右侧面板：选中部件时为 视图样式 / 数据源，未选中时为画布属性。点击画布上的部件切换选中。
const meta = {
  title: '属性面板/右侧面板',
  component: DesignerDemo,
  args: { scale: 0.5 },
  argTypes: { scale: { control: { type: 'range', min: 0.1, max: 1, step: 0.1 } } },
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof DesignerDemo>;

export default meta;
type Story = StoryObj<typeof meta>;

export const WidgetSelected: Story = { name: '选中部件', args: { initialSelected: 'demo-1' } };
export const NothingSelected: Story = { name: '未选中（画布属性）', args: { initialSelected: null } };
