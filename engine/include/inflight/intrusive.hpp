// The Boost.Intrusive list types standing in for the kernel's struct list_head.
#pragma once

#include <boost/intrusive/list.hpp>

namespace inflight {

namespace bi = boost::intrusive;
// safe_link: unlinked hooks are null, so is_linked() works and the invariant checker can test
// list membership the way the kernel's BUG_ON(list_empty(&u->link)) does.
using SafeHook = bi::list_member_hook<bi::link_mode<bi::safe_link>>;
using SafeBaseHook = bi::list_base_hook<bi::link_mode<bi::safe_link>>;

} // namespace inflight
