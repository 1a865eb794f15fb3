import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/跑马灯',
  component: WidgetStory,
  args: widgetArgs('marquee'),
  argTypes: widgetArgTypes('marquee'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

export const Fast: Story = { args: { speed: 150, color: '#4FD2DD', icon: '' } };
