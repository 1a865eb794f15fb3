import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/矩形树图',
  component: WidgetStory,
  args: widgetArgs('treemapChart'),
  argTypes: widgetArgTypes('treemapChart'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

export const Flat: Story = {
  args: {
    width: 400,
    height: 260,
    showValue: false,
    datasourceProps: {
      datasourceType: 'STATIC',
      dataMapping: [
        { id: '1', prop: 'name', label: '名称', field: 'name' },
        { id: '2', prop: 'value', label: '数值', field: 'value' },
        { id: '3', prop: 'parent', label: '上级名称（可空）', field: 'parent' },
      ],
      dataConfig: {
        data: [
          { name: '视频', value: 480, parent: '' },
          { name: '直播', value: 320, parent: '' },
          { name: '图文', value: 260, parent: '' },
          { name: '音频', value: 140, parent: '' },
          { name: '问答', value: 90, parent: '' },
        ],
      },
    },
  },
};
