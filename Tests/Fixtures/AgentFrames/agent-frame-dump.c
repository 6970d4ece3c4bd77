/*
 * The clipboard agent's reading of frames (Sources/actshare-clipboard-agent/agent_protocol.h):
 * reads frames from standard input with the agent's own channel_read, and prints each as
 * its canonical reading (make-golden.py says the form), one a line, until the input ends.
 * ActShareDaemonTests compares the lines with golden.txt.
 */
#include "agent.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_value(json_object *value);

static int by_name(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* The object's keys but `skip`, sorted, as key=value separated by spaces. */
static void print_members(json_object *object, const char *skip) {
    const char *keys[64];
    size_t count = 0;
    json_object_object_foreach(object, key, member) {
        (void)member;
        if (count < 64 && (!skip || strcmp(key, skip) != 0)) keys[count++] = key;
    }
    qsort(keys, count, sizeof *keys, by_name);
    for (size_t i = 0; i < count; i++) {
        printf("%s%s=", i ? " " : "", keys[i]);
        print_value(json_object_object_get(object, keys[i]));
    }
}

static void print_value(json_object *value) {
    switch (json_object_get_type(value)) {
    case json_type_boolean: fputs(json_object_get_boolean(value) ? "true" : "false", stdout); break;
    case json_type_int: printf("%lld", (long long)json_object_get_int64(value)); break;
    case json_type_string:
        putchar('"');
        for (const char *c = json_object_get_string(value); *c; c++) {
            if (*c == '"' || *c == '\\') putchar('\\');
            putchar(*c);
        }
        putchar('"');
        break;
    case json_type_array:
        putchar('[');
        for (size_t i = 0; i < json_object_array_length(value); i++) {
            if (i) putchar(' ');
            print_value(json_object_array_get_idx(value, i));
        }
        putchar(']');
        break;
    case json_type_object:
        putchar('{');
        print_members(value, NULL);
        putchar('}');
        break;
    default: fputs("?", stdout);
    }
}

int main(void) {
    json_object *header;
    unsigned char *data;
    uint32_t length;
    while (channel_read(0, 1u << 20, &header, &data, &length) == 0) {
        json_object *type = NULL;
        printf("%s", json_object_object_get_ex(header, "type", &type) ? json_object_get_string(type) : "?");
        if (json_object_object_length(header) > 1) putchar(' ');
        print_members(header, "type");
        fputs(" data=", stdout);
        if (!length) putchar('-');
        for (uint32_t i = 0; i < length; i++) printf("%02x", data[i]);
        putchar('\n');
        json_object_put(header);
        free(data);
    }
    return 0;
}
