from provebench._entry import main

main()
