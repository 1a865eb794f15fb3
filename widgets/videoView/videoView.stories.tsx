import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/视频',
  component: WidgetStory,
  args: widgetArgs('videoView'),
  argTypes: widgetArgTypes('videoView'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性。 */
export const Default: Story = {};

/** 不支持的地址或格式不会加载，只显示提示。 */
export const Refused: Story = { args: { url: 'https://example.cn/a.avi' } };
