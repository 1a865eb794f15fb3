import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/光晕',
  component: WidgetStory,
  args: widgetArgs('decorationGlow'),
  argTypes: widgetArgTypes('decorationGlow'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

export const Beam: Story = { args: { shape: 'beam', height: 24, color: '#3BA0FF' } };
