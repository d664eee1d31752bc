from provebench.cli import main

main()
