import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/倒计时',
  component: WidgetStory,
  args: widgetArgs('countdown'),
  argTypes: widgetArgTypes('countdown'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

/** 目标时间已过：显示结束后文字。 */
export const Finished: Story = { args: { target: '2020-01-01 00:00:00' } };
