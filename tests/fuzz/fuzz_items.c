/* fuzz_items.c - libFuzzer target: DynamoDB's answers as keyplan reads them (verify): a JSON
 * text holding items in DynamoDB's attribute-value form ({"PK": {"S": "..."}, "n": {"N": "7"}}),
 * alone, in a list, or under "Items"/"Item" as Query and GetItem answer. Whatever the JSON,
 * reading it gives items that can be sized and written back as JSON without trouble. */
#include "item.h"
#include "requests.h"
#include "util.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static void one(const json_t *j)
{
    kp_item it = {0};
    items_from_json(j, &it);
    (void)item_size(&it);
    json_t *back = items_json(&it);
    json_decref(back);
    item_free(&it);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_error_t e;
    json_t *root = json_loadb((const char *)data, size, JSON_DECODE_ANY, &e);
    if (!root)
        return 0;
    const json_t *list = json_is_object(root) ? json_object_get(root, "Items") : NULL;
    const json_t *item = json_is_object(root) ? json_object_get(root, "Item") : NULL;
    if (json_is_array(list) || json_is_array(root)) {
        const json_t *arr = json_is_array(list) ? list : root;
        size_t i;
        const json_t *v;
        json_array_foreach(arr, i, v) one(v);
    } else
        one(item ? item : root);
    json_decref(root);
    return 0;
}
