import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/水球图',
  component: WidgetStory,
  args: widgetArgs('liquidFill'),
  argTypes: widgetArgTypes('liquidFill'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据（完成率 68%）。 */
export const Default: Story = {};

/** 水滴形、单层水波。 */
export const Pin: Story = { args: { width: 220, height: 260, shape: 'pin', waveCount: 1, fontSize: 28 } };
